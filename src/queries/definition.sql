-- definition: member, visible
select json_build_object(
  'id', "definition"."id",
  'text', "definition"."text",
  'source', "definition"."source",
  'terms', COALESCE((SELECT json_agg((SELECT json_build_object(
    'id', "r2"."id",
    'text', "r2"."text") FROM "term" "r2" WHERE "r2"."id" = "r1"."term_id") ORDER BY "r1"."term_id") FROM "definition_term" "r1" WHERE "r1"."definition_id" = "definition"."id"), '[]'::json)) from "definition" where ("definition"."id" = ANY($1::int[]) and "definition"."organization_id" = $2::int);
