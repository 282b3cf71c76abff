-- Work orders and query codes (issue 31; docs/workorders.md, spec §2 /order/workOrder and
-- /code/findCode, §7 find/sensor/page and find/code/generate, §9 query code valid 7 days).

-- ---- work orders -------------------------------------------------------------------------

-- A customer's request for help to its service provider (the platform, or the proxy governing
-- the customer). The row holds the current state for the lists; what happened, by whom and when,
-- is in work_order_step, which is never changed.
CREATE TABLE work_order (
  id             serial       PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  -- What it is about: a device (sensor or gateway), a carrier or an exception.
  subject_kind   varchar(10)  NOT NULL CHECK (subject_kind IN ('sensor', 'gateway', 'carrier', 'exception')),
  sensor_id      integer      REFERENCES sensor(id) ON DELETE SET NULL,
  gateway_id     integer      REFERENCES gateway(id) ON DELETE SET NULL,
  exception_id   bigint       REFERENCES exception_record(id) ON DELETE SET NULL,
  -- The carrier of the subject when the order was raised: the scene limit goes by it
  -- (platform/db/sceneLimit.ts); null for a device bound to no carrier (unlimited users only).
  carrier_id     integer      REFERENCES carrier(id) ON DELETE SET NULL,
  -- The subject's name as it was raised (device number, carrier name, exception category), shown
  -- after the device or carrier is gone.
  subject_name   varchar(120) NOT NULL,
  category       varchar(12)  NOT NULL CHECK (category IN ('repair', 'calibration', 'installation', 'other')),
  description    varchar(500) NOT NULL,
  -- 0 pending, 1 accepted, 2 rejected, 3 done, 4 confirmed, 5 evaluated, 6 cancelled (contract WORK_ORDER_STATUS).
  status         smallint     NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 6),
  raised_by      integer      REFERENCES app_user(id) ON DELETE SET NULL,
  raised_by_name varchar(50)  NOT NULL,
  rating         smallint     CHECK (rating BETWEEN 1 AND 5),
  created_at     timestamptz  NOT NULL DEFAULT now(),
  updated_at     timestamptz  NOT NULL DEFAULT now(),
  CHECK ((rating IS NULL) = (status <> 5))
);
CREATE INDEX work_order_customer ON work_order(customer_id, status, id DESC);
CREATE INDEX work_order_carrier ON work_order(carrier_id) WHERE carrier_id IS NOT NULL;

-- One row per step; the state machine is the server's (modules/workorder/workorder.states.ts).
CREATE TABLE work_order_step (
  id             bigserial    PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  work_order_id  integer      NOT NULL REFERENCES work_order(id) ON DELETE CASCADE,
  action         varchar(10)  NOT NULL CHECK (action IN ('raise', 'accept', 'reject', 'record', 'done', 'confirm', 'evaluate', 'cancel')),
  -- Who acted, as it was then: no foreign key, the step outlives the account.
  side           varchar(8)   NOT NULL CHECK (side IN ('customer', 'provider')),
  user_id        integer      NOT NULL,
  user_name      varchar(50)  NOT NULL,
  note           varchar(500) NOT NULL DEFAULT '',
  rating         smallint     CHECK (rating BETWEEN 1 AND 5),
  status_before  smallint,
  status_after   smallint     NOT NULL,
  at             timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX work_order_step_order ON work_order_step(work_order_id, id);

-- Steps are kept as written (0035's rule for signed records: only their customer's deletion takes them).
CREATE TRIGGER work_order_step_keep BEFORE UPDATE OR DELETE ON work_order_step FOR EACH ROW EXECUTE FUNCTION signed_record_keep();
CREATE TRIGGER work_order_step_keep_truncate BEFORE TRUNCATE ON work_order_step FOR EACH STATEMENT EXECUTE FUNCTION signed_record_keep();
-- A work order is never deleted either (it is cancelled or rejected), but for its customer's deletion.
CREATE TRIGGER work_order_keep BEFORE DELETE ON work_order FOR EACH ROW EXECUTE FUNCTION signed_record_keep();

-- Pictures of a work order (spec §5 Uploads: JPG or PNG), in the database as stored_file is, so
-- that every replica serves them.
CREATE TABLE work_order_picture (
  id             serial       PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  work_order_id  integer      NOT NULL REFERENCES work_order(id) ON DELETE CASCADE,
  side           varchar(8)   NOT NULL CHECK (side IN ('customer', 'provider')),
  user_name      varchar(50)  NOT NULL,
  mime           varchar(30)  NOT NULL,
  size           integer      NOT NULL,
  data           bytea        NOT NULL,
  created_at     timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX work_order_picture_order ON work_order_picture(work_order_id, id);

-- ---- query codes -------------------------------------------------------------------------

-- A code a customer hands to someone without an account: whoever has it sees the readings of
-- these sensors over [start_ts, end_ts], until expires_at (7 days) or until it is revoked. The
-- token itself is not stored: it is signed (platform/auth/signedLink.ts) over id, customer and
-- expiry, and this row says whether it was revoked.
CREATE TABLE query_code (
  id             serial       PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  note           varchar(100) NOT NULL DEFAULT '',
  start_ts       timestamptz  NOT NULL,
  end_ts         timestamptz  NOT NULL,
  expires_at     timestamptz  NOT NULL,
  revoked_at     timestamptz,
  revoked_by     varchar(50),
  created_by     varchar(50)  NOT NULL,
  created_at     timestamptz  NOT NULL DEFAULT now(),
  CHECK (start_ts <= end_ts)
);
CREATE INDEX query_code_customer ON query_code(customer_id, id DESC);

CREATE TABLE query_code_sensor (
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  code_id        integer      NOT NULL REFERENCES query_code(id) ON DELETE CASCADE,
  sensor_id      integer      NOT NULL REFERENCES sensor(id) ON DELETE CASCADE,
  PRIMARY KEY (code_id, sensor_id)
);
CREATE INDEX query_code_sensor_sensor ON query_code_sensor(sensor_id);
