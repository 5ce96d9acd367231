-- definition: member, visible
select json_build_object(
  'id', "definition"."id",
  'text', "definition"."text",
  'source', "definition"."source",
  'terms', COALESCE((SELECT json_agg(json_build_object(
    'id', "r2"."id",
    'text', "r2"."text") ORDER BY "r1"."term_id") FROM "definition_term" "r1" JOIN "term" "r2" ON "r2"."id" = "r1"."term_id" WHERE "r1"."definition_id" = "definition"."id"), '[]'::json)) from "definition" where ("definition"."id" = ANY($1::int[]) and "definition"."organization_id" = $2::int);
