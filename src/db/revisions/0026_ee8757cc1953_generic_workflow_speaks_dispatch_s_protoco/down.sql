-- Back to one generic-workflow speaking Muster's protocol: the muster-workflow instances take its
-- place (the fresh generic-workflow instances go, with any workflow made on them since).
DELETE FROM "plugin_instance" WHERE "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'generic-workflow')
AND "project_id" IN (SELECT "project_id" FROM "plugin_instance" WHERE "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'muster-workflow'));
--> statement-breakpoint
UPDATE "plugin_instance" SET "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'generic-workflow')
WHERE "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'muster-workflow')
AND EXISTS (SELECT 1 FROM "plugin" WHERE "slug" = 'generic-workflow');
--> statement-breakpoint
DELETE FROM "plugin" WHERE "slug" = 'muster-workflow';
--> statement-breakpoint
DELETE FROM "plugin_offered" WHERE "slug" = 'muster-workflow';
