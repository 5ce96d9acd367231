-- term: member, visible
select json_build_object(
  'id', "term"."id",
  'text', "term"."text",
  'discoverable', "term"."discoverable",
  'definitions', COALESCE((SELECT json_agg((SELECT json_build_object(
    'id', "r2"."id",
    'text', "r2"."text",
    'source', "r2"."source",
    'terms', COALESCE((SELECT json_agg((SELECT json_build_object(
      'id', "r4"."id",
      'text', "r4"."text") FROM "term" "r4" WHERE "r4"."id" = "r3"."term_id") ORDER BY "r3"."term_id") FROM "definition_term" "r3" WHERE "r3"."definition_id" = "r2"."id"), '[]'::json)) FROM "definition" "r2" WHERE "r2"."id" = "r1"."definition_id") ORDER BY "r1"."definition_id") FROM "definition_term" "r1" WHERE "r1"."term_id" = "term"."id"), '[]'::json)) from "term" where ("term"."id" = ANY($1::int[]) and "term"."organization_id" = $2::int);
