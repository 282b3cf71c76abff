-- Relays and their switching (spec §3 Relay; §4 Device switch; docs/devices.md "Relays"). A
-- relay is switched through the gateway it hangs on (cc/{sn}/down/output, dev = its number).
CREATE TABLE relay (
  id                   serial PRIMARY KEY,
  customer_id          integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  dev_no               varchar(30) NOT NULL,
  name                 varchar(50) NOT NULL,
  type                 varchar(20) NOT NULL DEFAULT 'relay1',
  mac                  varchar(17) NOT NULL DEFAULT '',
  report_interval      integer NOT NULL DEFAULT 60 CHECK (report_interval BETWEEN 10 AND 86400),
  gateway_id           integer NOT NULL REFERENCES gateway(id),
  carrier_id           integer REFERENCES carrier(id) ON DELETE SET NULL,
  -- 2 = stopped by a user; otherwise its presence is its gateway's.
  status               smallint NOT NULL DEFAULT 0,
  status_before_cancel smallint,
  -- The output as last confirmed by the gateway's ack (NULL: never switched).
  output               boolean,
  output_at            timestamptz,
  tz                   varchar(6) NOT NULL DEFAULT '+08:00',
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX relay_dev_no ON relay (dev_no);
CREATE INDEX relay_customer ON relay (customer_id);
CREATE INDEX relay_gateway ON relay (gateway_id);

-- One switching of a relay: how it was asked for, how it ended, what came of it (§4).
CREATE TABLE relay_switch (
  id                bigserial PRIMARY KEY,
  customer_id       integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  relay_id          integer NOT NULL REFERENCES relay(id) ON DELETE CASCADE,
  mode              varchar(12) NOT NULL CHECK (mode IN ('intelligent', 'manual', 'direct')),
  turn_on           boolean NOT NULL,
  -- The output before it, restored by the automatic revert.
  before_output     boolean,
  cancel_after_s    integer CHECK (cancel_after_s IS NULL OR cancel_after_s > 0),
  started_at        timestamptz NOT NULL DEFAULT now(),
  ended_at          timestamptz,
  end_kind          varchar(10) CHECK (end_kind IN ('start', 'terminate', 'complete', 'revert')),
  result            varchar(20) NOT NULL CHECK (result IN ('user', 'ignoreCondition', 'userTermination')),
  condition_reached boolean,
  operator          varchar(50) NOT NULL DEFAULT '',
  ended_by          varchar(50)
);
CREATE UNIQUE INDEX relay_switch_running ON relay_switch (relay_id) WHERE ended_at IS NULL;
CREATE INDEX relay_switch_relay ON relay_switch (relay_id, started_at DESC);
CREATE INDEX relay_switch_customer ON relay_switch (customer_id);

ALTER TABLE device_command ADD COLUMN relay_id integer REFERENCES relay(id) ON DELETE CASCADE;
