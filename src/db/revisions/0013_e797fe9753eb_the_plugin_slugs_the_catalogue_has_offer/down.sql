DROP TABLE "plugin_offered" CASCADE;
