-- Smart bases (plinths; spec §2 /device/base, /BaseDetail; §3 device types: 915, 433, 2.4G, 4G
-- series, thermometer base, temperature-humidity base): a base on a gateway at a monitoring point.
CREATE TABLE base (
  id                   serial PRIMARY KEY,
  customer_id          integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  dev_no               varchar(30) NOT NULL,
  name                 varchar(50) NOT NULL,
  type                 varchar(20) NOT NULL,
  gateway_id           integer NOT NULL REFERENCES gateway(id),
  carrier_id           integer REFERENCES carrier(id) ON DELETE SET NULL,
  description          varchar(250) NOT NULL DEFAULT '',
  status               smallint NOT NULL DEFAULT 0,
  status_before_cancel smallint,
  tz                   varchar(6) NOT NULL DEFAULT '+08:00',
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX base_dev_no ON base (dev_no);
CREATE INDEX base_customer ON base (customer_id);
CREATE INDEX base_gateway ON base (gateway_id);
