-- Device ingest: gateway events, configuration/output commands and their acks.

-- Events a gateway reports (protocol: cc/{sn}/up/event). dev_no/sensor_id for the
-- device-level events (door, battery); ts is the device's time.
CREATE TABLE gateway_event (
  id            bigserial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  gateway_id    integer      NOT NULL REFERENCES gateway(id) ON DELETE CASCADE,
  sensor_id     integer      REFERENCES sensor(id) ON DELETE SET NULL,
  dev_no        varchar(30),
  type          varchar(20)  NOT NULL,                       -- power_fail | power_restore | door_open | door_close | low_battery
  ts            timestamptz  NOT NULL,
  received_at   timestamptz  NOT NULL DEFAULT now(),
  -- A QoS 1 redelivery of the same event is a duplicate, not a second event.
  UNIQUE NULLS NOT DISTINCT (gateway_id, ts, type, dev_no)
);
CREATE INDEX gateway_event_gateway_ts ON gateway_event(gateway_id, ts DESC);
CREATE INDEX gateway_event_customer_ts ON gateway_event(customer_id, ts DESC);

-- Commands to devices (cc/{sn}/down/config|output). The config feature inserts rows in
-- 'prepare'; publishing (MQTT) or a GET /ingest/v1/{sn}/commands moves them to 'issuing';
-- the gateway's ack ends them ('end' on ok, 'fail' on fail or timeout).
CREATE TABLE device_command (
  id            bigserial PRIMARY KEY,
  customer_id   integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  gateway_id    integer      NOT NULL REFERENCES gateway(id) ON DELETE CASCADE,
  sensor_id     integer      REFERENCES sensor(id) ON DELETE SET NULL,
  cmd_id        varchar(40)  NOT NULL UNIQUE,
  kind          varchar(10)  NOT NULL,                       -- config | output
  dev_no        varchar(30),
  payload       jsonb        NOT NULL,                       -- the down message as published
  status        varchar(10)  NOT NULL DEFAULT 'prepare',     -- prepare | issuing | end | fail
  detail        varchar(250) NOT NULL DEFAULT '',
  created_at    timestamptz  NOT NULL DEFAULT now(),
  issued_at     timestamptz,
  finished_at   timestamptz
);
CREATE INDEX device_command_open ON device_command(gateway_id, created_at) WHERE status IN ('prepare', 'issuing');

-- Presence scans look for running devices that went silent.
CREATE INDEX sensor_running_last_ts ON sensor(last_ts) WHERE status = 1;
CREATE INDEX ingest_reject_created ON ingest_reject(created_at DESC);
