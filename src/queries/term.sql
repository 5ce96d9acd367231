-- term: member, visible
select json_build_object(
  'id', "term"."id",
  'text', "term"."text",
  'discoverable', "term"."discoverable",
  'definitions', COALESCE((SELECT json_agg(json_build_object(
    'id', "r2"."id",
    'text', "r2"."text",
    'source', "r2"."source",
    'terms', COALESCE((SELECT json_agg(json_build_object(
      'id', "r4"."id",
      'text', "r4"."text") ORDER BY "r3"."term_id") FROM "definition_term" "r3" JOIN "term" "r4" ON "r4"."id" = "r3"."term_id" WHERE "r3"."definition_id" = "r2"."id"), '[]'::json)) ORDER BY "r1"."definition_id") FROM "definition_term" "r1" JOIN "definition" "r2" ON "r2"."id" = "r1"."definition_id" WHERE "r1"."term_id" = "term"."id"), '[]'::json)) from "term" where ("term"."id" = ANY($1::int[]) and "term"."organization_id" = $2::int);
