-- Issue 28, notices (docs/alarms.md "Notices"):
-- 1. A contact's language: its notices are written in it, else in the customer's (NULL).
ALTER TABLE contact ADD COLUMN locale varchar(5);

-- 2. Notice types longer than ten letters ('calibration', and the triggers' 'escalation').
ALTER TABLE notice_log ALTER COLUMN type TYPE varchar(20);

-- 3. Calibration expiry: the notice date whose notices were written. The job sends when
--    calib_notice has come and differs from it, so a sensor is told once per notice date and
--    again only when someone sets a new date (after the next calibration).
ALTER TABLE sensor ADD COLUMN calib_noticed_for timestamptz;

-- 4. A display's buzzer (docs/devices.md "Displays"): when it was last switched on for its
--    point's alarm, and whether it sounds now, so the job switches it off after alarm_duration_s
--    and on again after alarm_interval_s while the alarm lasts.
ALTER TABLE display ADD COLUMN buzzer_on_at timestamptz,
                    ADD COLUMN buzzer_sounding boolean NOT NULL DEFAULT false;
ALTER TABLE device_command ADD COLUMN display_id integer REFERENCES display(id) ON DELETE CASCADE;
