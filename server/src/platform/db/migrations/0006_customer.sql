-- Customers (spec §3/§4/§5): what a customer's cancellation disabled, so that reactivation
-- restores exactly that and nothing else, and the uniqueness of a customer's e-mail and phone.
-- (role.cancelled_by_customer and app_user.cancelled_by_customer come from 0005.)

-- A device's status before its customer was cancelled (0 offline, 1 running); NULL = not stopped by a cancel.
ALTER TABLE gateway ADD COLUMN status_before_cancel smallint;
ALTER TABLE sensor ADD COLUMN status_before_cancel smallint;
-- A monitoring point whose alarm switch the cancel turned off.
ALTER TABLE carrier ADD COLUMN cancelled_by_customer boolean NOT NULL DEFAULT false;

-- Spec §5: name, code, e-mail and mobile of a customer are unique (name and code since 0001).
CREATE UNIQUE INDEX customer_email_unique ON customer (lower(email)) WHERE email IS NOT NULL AND email <> '';
CREATE UNIQUE INDEX customer_phone_unique ON customer (phone) WHERE phone <> '';
