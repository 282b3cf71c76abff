-- Lending (secondment, spec §2 /sys/deviceTransfer, §3; docs/devices.md "Lending"): a sensor
-- lent to another customer is that customer's for the loan's period. Its row moves to the
-- borrower (so every scoped query, ingest and the alarms see it there and only there); its
-- readings keep the customer they were taken under, so the history before and after the loan
-- stays with the owner. The loan row is the owner's and remembers where the sensor came from.
CREATE TABLE device_loan (
  id                  bigserial PRIMARY KEY,
  customer_id         integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  borrower_id         integer NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  sensor_id           integer REFERENCES sensor(id) ON DELETE SET NULL,
  dev_no              varchar(30) NOT NULL,
  device_type         varchar(20) NOT NULL,
  borrower_name       varchar(100) NOT NULL,
  origin_gateway_id   integer,
  origin_carrier_id   integer,
  starts_at           timestamptz NOT NULL DEFAULT now(),
  ends_at             timestamptz NOT NULL,
  ended_at            timestamptz,
  end_reason          varchar(10),
  note                varchar(200) NOT NULL DEFAULT '',
  operator            varchar(50) NOT NULL DEFAULT '',
  ended_by            varchar(50),
  CHECK (borrower_id <> customer_id),
  CHECK (end_reason IS NULL OR end_reason IN ('revoked', 'expired'))
);
CREATE UNIQUE INDEX device_loan_current ON device_loan (sensor_id) WHERE ended_at IS NULL;
CREATE INDEX device_loan_customer ON device_loan (customer_id, starts_at DESC);
CREATE INDEX device_loan_due ON device_loan (ends_at) WHERE ended_at IS NULL;

-- The owner of a sensor that is lent out (NULL when it is home): ingest names a reading for it
-- from the owner's gateway "lent_device", the borrower's pages show it as borrowed.
ALTER TABLE sensor ADD COLUMN lent_from integer REFERENCES customer(id);
ALTER TABLE sensor ADD COLUMN lent_until timestamptz;

-- A gas detector's gas, by the hex code of spec §3 (NULL for other sensors).
ALTER TABLE sensor ADD COLUMN gas_code varchar(4);
