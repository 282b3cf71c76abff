-- Spec §3 units of measure (platform catalogue, /sys/unitMeasurement) and monitoring (probe)
-- ranges (per customer, /arch/detection): the range a probe can measure in a unit; one range
-- per unit and customer (§5).

CREATE TABLE probe_unit (
  id            serial PRIMARY KEY,
  unit          varchar(30)  NOT NULL,                      -- name: Temperature
  mark          varchar(10)  NOT NULL,                      -- symbol: °C
  number        varchar(20)  NOT NULL,                      -- code: temp
  value_type    varchar(10)  NOT NULL DEFAULT 'decimal',    -- string | number | decimal | time
  description   varchar(250) NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
-- §5 "unit, mark, number required and unique": unique regardless of letter case.
CREATE UNIQUE INDEX probe_unit_unit_key ON probe_unit (lower(unit));
CREATE UNIQUE INDEX probe_unit_mark_key ON probe_unit (lower(mark));
CREATE UNIQUE INDEX probe_unit_number_key ON probe_unit (lower(number));

INSERT INTO probe_unit (unit, mark, number, value_type, description) VALUES
  ('Temperature', '°C', 'temp', 'decimal', ''),
  ('Humidity', '%RH', 'hum', 'decimal', ''),
  ('Voltage', 'V', 'volt', 'decimal', ''),
  ('Signal strength', 'dBm', 'rssi', 'number', ''),
  ('Link quality', 'LQI', 'lqi', 'number', ''),
  ('Gas concentration', 'ppm', 'gas', 'decimal', ''),
  ('Duration', 's', 'time', 'time', '');

CREATE TABLE probe_range (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  unit_id       integer      NOT NULL REFERENCES probe_unit(id),
  min_value     numeric(7,2) NOT NULL,
  max_value     numeric(7,2) NOT NULL,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  CONSTRAINT probe_range_unit_key UNIQUE (customer_id, unit_id),
  CONSTRAINT probe_range_order CHECK (min_value <= max_value)
);
CREATE INDEX probe_range_unit ON probe_range (unit_id);
