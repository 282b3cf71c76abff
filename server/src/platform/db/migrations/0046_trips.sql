-- Transport mode (issue 31; docs/transport.md, spec §1, §2 /transHistory and /traceDetail, §3
-- "GPS history retention (days)"): a carrier in transport mode makes trips, started and ended by a
-- user, and the positions its gateway (heartbeat `gps`) or its 4G GPS sensor (its own gateway)
-- reports are kept per carrier and trip.

CREATE TABLE trip (
  id             serial       PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id     integer      NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  origin         varchar(100) NOT NULL DEFAULT '',
  destination    varchar(100) NOT NULL DEFAULT '',
  cargo          varchar(200) NOT NULL DEFAULT '',
  start_ts       timestamptz  NOT NULL,
  -- Null while the trip goes on.
  end_ts         timestamptz,
  started_by     varchar(50)  NOT NULL,
  ended_by       varchar(50),
  created_at     timestamptz  NOT NULL DEFAULT now(),
  CHECK (end_ts IS NULL OR end_ts >= start_ts)
);
-- One trip under way per carrier.
CREATE UNIQUE INDEX trip_one_open ON trip(carrier_id) WHERE end_ts IS NULL;
CREATE INDEX trip_customer ON trip(customer_id, id DESC);
CREATE INDEX trip_carrier ON trip(carrier_id, start_ts DESC);

-- Where a carrier in transport mode was: one row per reported position (a redelivered heartbeat
-- is the same carrier and time, kept once). trip_id is the trip under way then, null between trips.
CREATE TABLE trip_position (
  id             bigserial    PRIMARY KEY,
  customer_id    integer      NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  carrier_id     integer      NOT NULL REFERENCES carrier(id) ON DELETE CASCADE,
  trip_id        integer      REFERENCES trip(id) ON DELETE CASCADE,
  ts             timestamptz  NOT NULL,
  lat            double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng            double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  -- The gateway serial number (or 4G sensor number) that reported it.
  source         varchar(30)  NOT NULL,
  received_at    timestamptz  NOT NULL DEFAULT now(),
  UNIQUE (carrier_id, ts)
);
CREATE INDEX trip_position_trip ON trip_position(trip_id, ts) WHERE trip_id IS NOT NULL;
CREATE INDEX trip_position_ts ON trip_position(ts);
