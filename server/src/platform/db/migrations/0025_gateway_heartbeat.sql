-- Gateway heartbeat history (spec §3 Gateway "heartbeat history"; settings "gateway heartbeat
-- history on/off and days"): one row per heartbeat while the parameter is on, kept for its days.
CREATE TABLE gateway_heartbeat (
  id          bigserial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  gateway_id  integer NOT NULL REFERENCES gateway(id) ON DELETE CASCADE,
  ts          timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  power       varchar(10),
  tcp         boolean,
  lte         boolean,
  flight      boolean,
  ip          varchar(45),
  wan_ip      varchar(45),
  lat         double precision,
  lng         double precision
);
CREATE INDEX gateway_heartbeat_gateway ON gateway_heartbeat (gateway_id, received_at DESC);
CREATE INDEX gateway_heartbeat_received ON gateway_heartbeat (received_at);
CREATE INDEX gateway_heartbeat_customer ON gateway_heartbeat (customer_id);
