-- Exceptions of a carrier's value (spec §3 sample modes max, min, avg, balanced): keyed by the
-- carrier, with no sensor. One ongoing per carrier and category, as per sensor and category
-- (0001 exception_one_ongoing, whose NULL sensor ids never collide).
CREATE UNIQUE INDEX IF NOT EXISTS exception_one_ongoing_carrier ON exception_record(carrier_id, category)
  WHERE ongoing AND sensor_id IS NULL AND type = 'data';
CREATE INDEX IF NOT EXISTS exception_carrier_category ON exception_record(carrier_id, category, start_ts)
  WHERE type = 'data' AND sensor_id IS NULL;
