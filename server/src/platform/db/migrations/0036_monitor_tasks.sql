-- Monitor tasks (spec §3 Monitor task, §2 /arch/task; docs/devices.md "Monitor tasks"): a
-- customer's own offline-detection task for one device family. A family without a row inherits
-- the platform default (packages/contract api/monitorTask.ts MONITOR_TASK_DEFAULTS), so a new
-- customer needs no rows and a default changed in a later version reaches everyone who kept it.
CREATE TABLE monitor_task (
  id             serial PRIMARY KEY,
  customer_id    integer     NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  family         varchar(10) NOT NULL CHECK (family IN ('zbp', 'zbp2', '4g', 'lora', 'zeta', 'gateway', 'display', 'relay')),
  interval_value integer     NOT NULL CHECK (interval_value >= 1),
  interval_unit  varchar(6)  NOT NULL CHECK (interval_unit IN ('minute', 'hour', 'day')),
  -- What the offline rule reads (server/src/ingest/offline.ts): the interval in seconds.
  interval_s     integer     GENERATED ALWAYS AS (interval_value * CASE interval_unit WHEN 'minute' THEN 60 WHEN 'hour' THEN 3600 ELSE 86400 END) STORED,
  status         smallint    NOT NULL DEFAULT 1 CHECK (status IN (0, 1)), -- 0 stopped, 1 running
  updated_at     timestamptz NOT NULL DEFAULT now(),
  updated_by     varchar(50) NOT NULL DEFAULT '',
  CHECK (interval_value * CASE interval_unit WHEN 'minute' THEN 60 WHEN 'hour' THEN 3600 ELSE 86400 END <= 2592000),
  UNIQUE (customer_id, family)
);

-- Connection and power exceptions of displays and relays (docs/alarms.md "Connection, power and
-- battery"): their subject is the device, which the columns of 0001 could not name.
ALTER TABLE exception_record
  ADD COLUMN display_id integer REFERENCES display(id) ON DELETE SET NULL,
  ADD COLUMN relay_id   integer REFERENCES relay(id) ON DELETE SET NULL;

-- One ongoing exception per subject and category, each kind of subject with an index of its own
-- (the statements that open them name these as their ON CONFLICT arbiters). A sensor's: its
-- connection and its battery (0001's exception_one_ongoing holds too; this one is the device
-- categories' own, whatever becomes of the data categories' rule).
CREATE UNIQUE INDEX exception_one_ongoing_sensor_device ON exception_record(sensor_id, category)
  WHERE ongoing AND type IN ('offline', 'power') AND sensor_id IS NOT NULL;
-- A gateway's connection and power failure: rows without a sensor (data exceptions carry their
-- sensor's gateway too, hence the categories).
CREATE UNIQUE INDEX exception_one_ongoing_gateway ON exception_record(gateway_id, category)
  WHERE ongoing AND category IN ('gateway_connect', 'gateway_blackout');
CREATE UNIQUE INDEX exception_one_ongoing_display ON exception_record(display_id, category)
  WHERE ongoing AND display_id IS NOT NULL;
CREATE UNIQUE INDEX exception_one_ongoing_relay ON exception_record(relay_id, category)
  WHERE ongoing AND relay_id IS NOT NULL;
-- The presence scan's look at what is still going on (a handful of rows among millions).
CREATE INDEX exception_device_ongoing ON exception_record(category) WHERE ongoing AND type IN ('offline', 'power');
