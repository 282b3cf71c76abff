-- Places of transport mode (issue 31; docs/transport.md "Places"): a customer's named circles
-- (a depot, a clinic, a distribution centre). A carrier in transport mode that leaves a place
-- starts a trip by itself, and a trip under way that reaches a place (after having left it)
-- ends there: ingest judges each newest position (server/src/ingest/positions.ts).
CREATE TABLE place (
  id           serial           PRIMARY KEY,
  customer_id  integer          NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  name         varchar(50)      NOT NULL,
  lat          double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng          double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  radius_m     integer          NOT NULL CHECK (radius_m BETWEEN 50 AND 50000),
  created_at   timestamptz      NOT NULL DEFAULT now(),
  updated_by   varchar(50)      NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX place_customer_name ON place(customer_id, name);

-- A trip started by leaving a place (its origin is that place; started_by is empty).
ALTER TABLE trip ADD COLUMN auto boolean NOT NULL DEFAULT false;
