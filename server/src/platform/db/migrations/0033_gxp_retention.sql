-- GxP records are kept at least 5 years (China GSP article 42; docs/compliance.md). An
-- installation that stored the old defaults (365 days of sensor history, 180 of logs) moves to
-- the new one, 1827 days, and says so once in the system log; a value chosen otherwise stays (the
-- retention job still keeps records 5 years unless the console runs with GXP_RECORDS=off).
WITH raised AS (
  UPDATE setting SET value = '1827'
   WHERE (key = 'sensor_history_retention_days' AND value = '365') OR (key = 'log_retention_days' AND value = '180')
  RETURNING key
)
INSERT INTO sys_log (operator, module, method, content, params, result)
SELECT '', 'param', 'update',
       'retention raised to 1827 days (5 years, GxP) from the old default: ' || string_agg(key, ', ' ORDER BY key),
       jsonb_build_object('keys', jsonb_agg(key ORDER BY key), 'value', '1827'), 1
  FROM raised
HAVING count(*) > 0;
