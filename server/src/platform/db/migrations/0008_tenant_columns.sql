-- Every table that holds a customer's data names the customer (docs/tenancy.md): the scope
-- plugin (platform/db/scoped.ts) filters each of them by that column, and a distributed
-- database (Citus, docs/scaling.md) can co-locate them by it.

-- role_proxy_customer.customer_id named the GOVERNED customer; the owner is the role's.
ALTER TABLE role_proxy_customer RENAME COLUMN customer_id TO governed_id;
ALTER TABLE role_proxy_customer ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE role_proxy_customer x SET customer_id = r.customer_id FROM role r WHERE r.id = x.role_id;
ALTER TABLE role_proxy_customer ALTER COLUMN customer_id SET NOT NULL;
CREATE INDEX role_proxy_customer_governed ON role_proxy_customer(governed_id);

ALTER TABLE role_func ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE role_func x SET customer_id = r.customer_id FROM role r WHERE r.id = x.role_id;
ALTER TABLE role_func ALTER COLUMN customer_id SET NOT NULL;

ALTER TABLE role_resource ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE role_resource x SET customer_id = r.customer_id FROM role r WHERE r.id = x.role_id;
ALTER TABLE role_resource ALTER COLUMN customer_id SET NOT NULL;

ALTER TABLE role_scene ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE role_scene x SET customer_id = r.customer_id FROM role r WHERE r.id = x.role_id;
ALTER TABLE role_scene ALTER COLUMN customer_id SET NOT NULL;

ALTER TABLE user_role ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE user_role x SET customer_id = u.customer_id FROM app_user u WHERE u.id = x.user_id;
ALTER TABLE user_role ALTER COLUMN customer_id SET NOT NULL;

ALTER TABLE user_scene ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE user_scene x SET customer_id = u.customer_id FROM app_user u WHERE u.id = x.user_id;
ALTER TABLE user_scene ALTER COLUMN customer_id SET NOT NULL;

ALTER TABLE shortcut ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE shortcut x SET customer_id = u.customer_id FROM app_user u WHERE u.id = x.user_id;
ALTER TABLE shortcut ALTER COLUMN customer_id SET NOT NULL;

-- A link row's customer is its parent's, always: derived on insert, so it can never disagree.
CREATE FUNCTION customer_of_role() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.customer_id := (SELECT customer_id FROM role WHERE id = NEW.role_id);
  RETURN NEW;
END $fn$;
CREATE FUNCTION customer_of_user() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.customer_id := (SELECT customer_id FROM app_user WHERE id = NEW.user_id);
  RETURN NEW;
END $fn$;
CREATE TRIGGER role_proxy_customer_owner BEFORE INSERT OR UPDATE ON role_proxy_customer FOR EACH ROW EXECUTE FUNCTION customer_of_role();
CREATE TRIGGER role_func_owner BEFORE INSERT OR UPDATE ON role_func FOR EACH ROW EXECUTE FUNCTION customer_of_role();
CREATE TRIGGER role_resource_owner BEFORE INSERT OR UPDATE ON role_resource FOR EACH ROW EXECUTE FUNCTION customer_of_role();
CREATE TRIGGER role_scene_owner BEFORE INSERT OR UPDATE ON role_scene FOR EACH ROW EXECUTE FUNCTION customer_of_role();
CREATE TRIGGER user_role_owner BEFORE INSERT OR UPDATE ON user_role FOR EACH ROW EXECUTE FUNCTION customer_of_user();
CREATE TRIGGER user_scene_owner BEFORE INSERT OR UPDATE ON user_scene FOR EACH ROW EXECUTE FUNCTION customer_of_user();
CREATE TRIGGER shortcut_owner BEFORE INSERT OR UPDATE ON shortcut FOR EACH ROW EXECUTE FUNCTION customer_of_user();

-- Known once the QR code is confirmed by a signed-in user.
ALTER TABLE login_qr ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE login_qr x SET customer_id = u.customer_id FROM app_user u WHERE u.id = x.user_id;

-- Known when the gateway is; NULL for an unknown gateway sn.
ALTER TABLE ingest_reject ADD COLUMN customer_id integer REFERENCES customer(id) ON DELETE CASCADE;
UPDATE ingest_reject x SET customer_id = g.customer_id FROM gateway g WHERE g.sn = x.gateway_sn;
CREATE INDEX ingest_reject_customer ON ingest_reject(customer_id, created_at DESC);
