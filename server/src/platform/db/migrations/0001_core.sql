-- Core schema of the foundation: tenants, accounts, the organisation tree, carriers,
-- devices, readings, exceptions, notices and the system log. Every customer table
-- carries customer_id so that it can be distributed by customer (docs/scaling.md).

CREATE TABLE customer (
  id            serial PRIMARY KEY,
  name          varchar(50)  NOT NULL UNIQUE,
  short_name    varchar(30)  NOT NULL DEFAULT '',
  code          varchar(20)  NOT NULL UNIQUE,
  status        smallint     NOT NULL DEFAULT 1,          -- 1 active, 0 cancelled
  type          varchar(10)  NOT NULL DEFAULT 'customer', -- platform | customer
  org_type      varchar(2)   NOT NULL DEFAULT '09',
  area          varchar(120) NOT NULL DEFAULT '',
  area_code     varchar(20)  NOT NULL DEFAULT '',
  address       varchar(255) NOT NULL DEFAULT '',
  contact       varchar(30)  NOT NULL DEFAULT '',
  phone         varchar(20)  NOT NULL DEFAULT '',
  email         varchar(100),
  notify_email  boolean      NOT NULL DEFAULT true,
  notify_sms    boolean      NOT NULL DEFAULT false,
  description   varchar(250) NOT NULL DEFAULT '',
  time_zone     varchar(6)   NOT NULL DEFAULT '+08:00',
  created_at    timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE app_user (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  account       varchar(50)  NOT NULL UNIQUE,
  name          varchar(50)  NOT NULL DEFAULT '',
  gender        smallint     NOT NULL DEFAULT 1,
  password_hash text         NOT NULL,
  mobile        varchar(20),
  email         varchar(100),
  status        smallint     NOT NULL DEFAULT 1,          -- 1 active, 0 cancelled
  user_type     smallint     NOT NULL DEFAULT 0,          -- spec §6 scope type: -1 proxy, 0..3
  is_admin      boolean      NOT NULL DEFAULT false,
  guide_on      boolean      NOT NULL DEFAULT true,
  locale        varchar(5),
  remarks       varchar(250) NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX app_user_customer ON app_user(customer_id);

CREATE TABLE user_session (
  token         text         PRIMARY KEY,
  user_id       integer      NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  customer_id   integer      NOT NULL,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  expires_at    timestamptz  NOT NULL
);
CREATE INDEX user_session_user ON user_session(user_id);

CREATE TABLE captcha (
  id            text         PRIMARY KEY,
  answer        varchar(10)  NOT NULL,
  expires_at    timestamptz  NOT NULL
);

CREATE TABLE scene (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  parent_id     integer      REFERENCES scene(id) ON DELETE CASCADE,
  code          varchar(40)  NOT NULL UNIQUE,                -- scene_code, the tree's node key
  label         varchar(50)  NOT NULL,
  func_type     smallint     NOT NULL DEFAULT 0,             -- 0 organisation, 1 floor plan, 2 map, 3 menu
  lng           double precision,
  lat           double precision,
  sort          integer      NOT NULL DEFAULT 0,
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX scene_customer ON scene(customer_id);

CREATE TABLE carrier (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  scene_id      integer      NOT NULL REFERENCES scene(id),
  name          varchar(50)  NOT NULL,
  type          smallint     NOT NULL,                       -- 1 incubator … 7 other
  status        smallint     NOT NULL DEFAULT 1,             -- 1 running … 5 defrost
  alarm_on      boolean      NOT NULL DEFAULT true,
  mode          varchar(20)  NOT NULL DEFAULT 'normal',      -- normal | transport
  temp_min      numeric(7,2),
  temp_max      numeric(7,2),
  hum_min       numeric(5,2),
  hum_max       numeric(5,2),
  created_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (customer_id, name)
);
CREATE INDEX carrier_scene ON carrier(scene_id);

CREATE TABLE contact (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name          varchar(30)  NOT NULL,
  gender        smallint     NOT NULL DEFAULT 1,
  phone         varchar(20)  NOT NULL DEFAULT '',
  email         varchar(100) NOT NULL DEFAULT '',
  alarm_level   smallint     NOT NULL DEFAULT 1,
  group_name    varchar(50)  NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX contact_customer ON contact(customer_id);

CREATE TABLE carrier_contact (
  carrier_id    integer NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  contact_id    integer NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
  customer_id   integer NOT NULL,
  PRIMARY KEY (carrier_id, contact_id)
);

CREATE TABLE gateway (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  sn            varchar(30)  NOT NULL UNIQUE,
  name          varchar(50)  NOT NULL,
  nickname      varchar(50)  NOT NULL DEFAULT '',
  type          varchar(10)  NOT NULL DEFAULT 'gw2',
  secret_hash   text         NOT NULL,
  status        smallint     NOT NULL DEFAULT 0,             -- 0 offline, 1 running, 2 stopped
  carrier_id    integer      REFERENCES carrier(id) ON DELETE SET NULL,
  last_seen_at  timestamptz,
  power         varchar(10),
  tcp           boolean,
  lte           boolean,
  flight        boolean,
  ip            varchar(45),
  wan_ip        varchar(45),
  lat           double precision,
  lng           double precision,
  tz            varchar(6)   NOT NULL DEFAULT '+08:00',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX gateway_customer ON gateway(customer_id);

CREATE TABLE sensor (
  id            serial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  dev_no        varchar(30)  NOT NULL UNIQUE,
  type          varchar(12)  NOT NULL,
  description   varchar(250) NOT NULL DEFAULT '',
  gateway_id    integer      NOT NULL REFERENCES gateway(id),
  carrier_id    integer      REFERENCES carrier(id) ON DELETE SET NULL,
  status        smallint     NOT NULL DEFAULT 0,             -- 0 offline, 1 running, 2 stopped
  sample_interval integer    NOT NULL DEFAULT 60,            -- seconds
  last_ts       timestamptz,
  last_temp     real,
  last_hum      real,
  last_volt     real,
  last_rssi     real,
  last_lqi      real,
  last_gas      real,
  last_door     smallint,
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX sensor_customer ON sensor(customer_id);
CREATE INDEX sensor_gateway ON sensor(gateway_id);
CREATE INDEX sensor_carrier ON sensor(carrier_id);

-- Readings, partitioned by month of the sampling time. (sensor_id, ts) is the device
-- protocol's (dev, ts) identity: a redelivered reading conflicts and is skipped.
CREATE TABLE reading (
  sensor_id     integer      NOT NULL,
  ts            timestamptz  NOT NULL,
  customer_id   integer      NOT NULL,
  temp          real,
  hum           real,
  volt          real,
  rssi          real,
  lqi           real,
  gas           real,
  door          smallint,
  received_at   timestamptz  NOT NULL DEFAULT now(),
  PRIMARY KEY (sensor_id, ts)
) PARTITION BY RANGE (ts);
CREATE TABLE reading_default PARTITION OF reading DEFAULT;

CREATE TABLE exception_record (
  id            bigserial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id    integer      REFERENCES carrier(id) ON DELETE SET NULL,
  sensor_id     integer      REFERENCES sensor(id) ON DELETE SET NULL,
  gateway_id    integer      REFERENCES gateway(id) ON DELETE SET NULL,
  type          varchar(10)  NOT NULL,                       -- data | offline | power
  category      varchar(20)  NOT NULL,                       -- temp_high, temp_low, hum_high, …
  status        smallint     NOT NULL DEFAULT 0,             -- 0 pending, 1 processed, 2 closed
  ongoing       boolean      NOT NULL DEFAULT true,
  start_ts      timestamptz  NOT NULL,
  end_ts        timestamptz,
  duration_s    integer,
  first_value   real,
  peak_value    real,
  limit_min     real,
  limit_max     real,
  reason        varchar(250) NOT NULL DEFAULT '',
  measures      varchar(250) NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX exception_customer_start ON exception_record(customer_id, start_ts DESC);
-- At most one ongoing exception per sensor and category: the alarm evaluator relies on it.
CREATE UNIQUE INDEX exception_one_ongoing ON exception_record(sensor_id, category) WHERE ongoing;

CREATE TABLE notice_log (
  id            bigserial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  exception_id  bigint       REFERENCES exception_record(id) ON DELETE SET NULL,
  type          varchar(10)  NOT NULL,                       -- alarm | captcha
  channel       varchar(10)  NOT NULL,                       -- email | sms | voice
  recipient     varchar(100) NOT NULL,
  subject       varchar(200) NOT NULL DEFAULT '',
  content       text         NOT NULL,
  status        smallint     NOT NULL DEFAULT 0,             -- 0 pending, 1 sent, 2 failed
  attempts      smallint     NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  result        text         NOT NULL DEFAULT '',
  send_time     timestamptz,
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX notice_pending ON notice_log(next_attempt_at) WHERE status = 0;
CREATE INDEX notice_customer ON notice_log(customer_id, created_at DESC);

CREATE TABLE sys_log (
  id            bigserial PRIMARY KEY,
  customer_id   integer,
  user_id       integer,
  operator      varchar(50)  NOT NULL DEFAULT '',
  module        varchar(40)  NOT NULL,
  method        varchar(60)  NOT NULL,
  content       varchar(250) NOT NULL DEFAULT '',
  params        jsonb,
  result        smallint     NOT NULL,                       -- 0 failed, 1 success
  created_at    timestamptz  NOT NULL DEFAULT now()
);
CREATE INDEX sys_log_customer ON sys_log(customer_id, created_at DESC);

-- Ingest rejections (unknown device, foreign device, malformed message): counted and kept.
CREATE TABLE ingest_reject (
  id            bigserial PRIMARY KEY,
  gateway_sn    varchar(30),
  dev_no        varchar(30),
  reason        varchar(60)  NOT NULL,
  detail        text         NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE setting (
  key           varchar(60)  PRIMARY KEY,
  value         text         NOT NULL
);

-- Durable hand-over from ingest to the alarm evaluator: written in the same transaction as
-- the readings, so a crash between commit and evaluation cannot hide an excursion. One row
-- per sensor; repeated batches widen the window and bump the version.
CREATE TABLE alarm_queue (
  sensor_id     integer      PRIMARY KEY,
  customer_id   integer      NOT NULL,
  min_ts        timestamptz  NOT NULL,
  max_ts        timestamptz  NOT NULL,
  version       bigint       NOT NULL DEFAULT 1,
  queued_at     timestamptz  NOT NULL DEFAULT now()
);
