-- project.ProjectRead.2: member, visible
select json_build_object(
  'id', "project"."id",
  'name', "project"."name",
  'color', "project"."color",
  'display_name', "project"."display_name",
  'enabled', "project"."enabled",
  'allow_self_join', "project"."allow_self_join") from "project" where ("project"."id" = ANY($1::int[]) and "project"."organization_id" = $2::int);
