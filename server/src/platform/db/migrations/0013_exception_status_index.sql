-- The exception list's most used filter is its status (pending, processed, closed): with the
-- status in the index a filtered page reads its rows in order and stops at the page's end
-- (docs/performance.md "Paged lists").
CREATE INDEX IF NOT EXISTS exception_customer_status_start ON exception_record(customer_id, status, start_ts DESC);
