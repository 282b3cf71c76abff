-- The ingest writer moves every reporting sensor's latest values (last_ts, last_temp, …) in
-- each batch. With last_ts indexed, none of those updates could be HOT: each wrote a new entry
-- into all seven indexes of sensor, and the table bloated faster than autovacuum cleared it
-- (92 MB for 5,600 sensors after a benchmark; updates of 400 rows took 15–80 ms). The index
-- served nothing: the presence job's silence test compares last_ts with a bound that depends on
-- each row's sample interval, which an index on last_ts cannot answer. Without it, and with room
-- left on each page, the latest values are updated in place (HOT).
DROP INDEX IF EXISTS sensor_running_last_ts;
ALTER TABLE sensor SET (fillfactor = 70);
