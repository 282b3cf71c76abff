-- Verification tasks (spec §2 /arch/verificationTask, §3 Verification task, §4; issue 29;
-- docs/statistics.md "Mapping figures (JJF 1101)"): a temperature mapping study of one carrier
-- with a chosen set of its probes. Its result is not stored: the mapping figures are computed
-- from the readings of its recording whenever its page is opened (modules/mapping), so a
-- back-filled reading counts and a task made for a past period evaluates what is stored.
--
-- status: 0 to be started, 1 in progress / task starting (before record_start),
--         2 in progress / data recording, 3 terminated. The job `verify-task` moves a task along
--         its times (jobs/verifyTask.ts); the actions start recording and terminate move it by hand.
CREATE TABLE verify_task (
  id                 serial PRIMARY KEY,
  customer_id        integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id         integer      NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  name               varchar(50)  NOT NULL,
  description        varchar(250) NOT NULL DEFAULT '',
  -- The load, door and ambient conditions of the study, as the report states them.
  conditions         varchar(250) NOT NULL DEFAULT '',
  setpoint           numeric(7,2) NOT NULL,
  hum_setpoint       numeric(5,2),
  -- The point the centre deviation is measured at (JJF 1101's "centre point"); NULL: the first
  -- device by number (documented), so a task always has one.
  centre_sensor_id   integer      REFERENCES sensor(id) ON DELETE SET NULL,
  start_time         timestamptz  NOT NULL,
  record_start       timestamptz  NOT NULL,
  end_time           timestamptz  NOT NULL,
  -- Sampling frequency: readings are grouped into instants of this many seconds from record_start.
  interval_s         integer      NOT NULL CHECK (interval_s BETWEEN 10 AND 86400),
  data_delay_min     integer      NOT NULL DEFAULT 30 CHECK (data_delay_min BETWEEN 1 AND 1440),
  offline_delay_min  integer      NOT NULL DEFAULT 60 CHECK (offline_delay_min BETWEEN 1 AND 1440),
  notify_complete    boolean      NOT NULL DEFAULT true,
  notify_timeout     boolean      NOT NULL DEFAULT true,
  notify_exception   boolean      NOT NULL DEFAULT true,
  status             smallint     NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 3),
  -- When the recording ended (end_time, or the moment it was terminated by hand).
  ended_at           timestamptz,
  -- What the job has already told, so a rerun or a second replica tells nothing twice: the
  -- data-delay and offline notices (once per task each), and the highest exception told.
  delay_noticed      boolean      NOT NULL DEFAULT false,
  offline_noticed    boolean      NOT NULL DEFAULT false,
  exception_seen     integer      NOT NULL DEFAULT 0,
  created_at         timestamptz  NOT NULL DEFAULT now(),
  updated_at         timestamptz  NOT NULL DEFAULT now(),
  updated_by         varchar(50)  NOT NULL DEFAULT '',
  CHECK (start_time <= record_start AND record_start <= end_time AND start_time < end_time)
);
CREATE INDEX verify_task_customer ON verify_task(customer_id, id);
CREATE INDEX verify_task_carrier ON verify_task(carrier_id);
-- The job's look at the tasks still moving (few among many terminated ones).
CREATE INDEX verify_task_open ON verify_task(status) WHERE status < 3;

-- The task's points: probes of its carrier when chosen. A probe moved to another carrier later
-- stays a point of the task: the study was made with it.
CREATE TABLE verify_task_device (
  task_id      integer NOT NULL REFERENCES verify_task(id) ON DELETE CASCADE,
  sensor_id    integer NOT NULL REFERENCES sensor(id) ON DELETE CASCADE,
  customer_id  integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, sensor_id)
);
CREATE INDEX verify_task_device_sensor ON verify_task_device(sensor_id);
