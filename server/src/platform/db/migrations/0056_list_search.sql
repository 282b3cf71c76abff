-- The device and carrier lists search a number or a name anywhere in it (ILIKE '%…%'), which no
-- B-tree serves: at 100,000 sensors each search read the whole table twice (the count and the
-- page), 100-200 ms on two cores, against 5 ms at 1,000 (docs/scaling.md "Lists at 100,000").
-- Trigram indexes serve such a pattern. pg_trgm is a trusted contrib extension of PostgreSQL
-- (PostgreSQL 13 on: a database owner may create it). Where it is not available (PGlite, which
-- bundles it separately; a server without contrib) the searches keep reading the table, as they
-- did: small installations. None of these columns is written by the ingest's hot updates
-- (migration 0028), so the sensor and gateway rows keep their HOT updates.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS sensor_dev_no_trgm ON sensor USING gin (dev_no gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS gateway_sn_trgm ON gateway USING gin (sn gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS gateway_name_trgm ON gateway USING gin (name gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS gateway_nickname_trgm ON gateway USING gin (nickname gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS carrier_name_trgm ON carrier USING gin (name gin_trgm_ops);
  END IF;
END $$;
