-- alert: member, visible
select json_build_object(
  'id', "alert"."id",
  'name', "alert"."name",
  'description', "alert"."description",
  'external_link', "alert"."external_link",
  'originator', "alert"."originator") from "alert" where ("alert"."id" = ANY($1::int[]) and "alert"."organization_id" = $2::int);
