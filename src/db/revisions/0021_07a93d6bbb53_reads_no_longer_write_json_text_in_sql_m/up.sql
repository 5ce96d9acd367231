-- hand-written
DROP FUNCTION IF EXISTS muster_json_text(jsonb);
