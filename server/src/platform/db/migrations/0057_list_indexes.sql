-- Indexes the lists need at 100,000 rows (docs/scaling.md "Lists at 100,000").
-- The exception list filtered by a monitoring point (carrierId) or a device number (devNo) found
-- its rows by reading every exception of the customer: the indexes on carrier_id and sensor_id
-- are partial (ongoing rows, carrier-level data exceptions), so a filter on all of a point's or a
-- sensor's exceptions could use none of them. At 100,000 exceptions that was 30-100 ms a page
-- against 4 ms at 1,000 (docs/scaling.md "Lists at 100,000"). Newest first, as the list reads them.
CREATE INDEX IF NOT EXISTS exception_carrier_start ON exception_record (carrier_id, start_ts DESC);
CREATE INDEX IF NOT EXISTS exception_sensor_start ON exception_record (sensor_id, start_ts DESC);

-- The carrier list's count of a customer's points read the whole table: the only index leading
-- with customer_id is (customer_id, name), too wide for the planner to count on. A narrow one
-- is counted index-only, as the sensors and gateways are (sensor_customer, gateway_customer).
CREATE INDEX IF NOT EXISTS carrier_customer ON carrier (customer_id);
