ALTER TABLE "signal_instance" DROP COLUMN "filter_monitor";
