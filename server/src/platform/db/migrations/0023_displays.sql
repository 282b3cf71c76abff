-- Display screens (spec §3 Display: number, name, nickname, type, alarm on/off, alarm duration,
-- alarm interval, heartbeat interval; docs/devices.md "Displays"): a screen on a gateway that
-- shows a monitoring point and sounds its buzzer for its alarms.
CREATE TABLE display (
  id                   serial PRIMARY KEY,
  customer_id          integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  dev_no               varchar(30) NOT NULL,
  name                 varchar(50) NOT NULL,
  nickname             varchar(50) NOT NULL DEFAULT '',
  type                 varchar(20) NOT NULL DEFAULT 'display1',
  gateway_id           integer NOT NULL REFERENCES gateway(id),
  carrier_id           integer REFERENCES carrier(id) ON DELETE SET NULL,
  alarm_on             boolean NOT NULL DEFAULT true,
  alarm_duration_s     integer NOT NULL DEFAULT 60 CHECK (alarm_duration_s BETWEEN 1 AND 3600),
  alarm_interval_s     integer NOT NULL DEFAULT 300 CHECK (alarm_interval_s BETWEEN 10 AND 86400),
  heartbeat_interval_s integer NOT NULL DEFAULT 60 CHECK (heartbeat_interval_s BETWEEN 10 AND 86400),
  status               smallint NOT NULL DEFAULT 0,
  status_before_cancel smallint,
  tz                   varchar(6) NOT NULL DEFAULT '+08:00',
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX display_dev_no ON display (dev_no);
CREATE INDEX display_customer ON display (customer_id);
CREATE INDEX display_gateway ON display (gateway_id);
