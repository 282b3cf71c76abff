-- The session now carries the user's stored interface language (spec §1: cookie, then the stored
-- setting, then the browser's), so a change of app_user.locale must forget cached sessions like
-- the other columns resolveSession reads (0029).
DROP TRIGGER app_user_changed ON app_user;
CREATE TRIGGER app_user_changed AFTER UPDATE OF account, name, customer_id, user_type, is_admin, status, proxy_customer_id, locale OR DELETE ON app_user
  FOR EACH ROW EXECUTE FUNCTION session_inputs_changed();
