ALTER TABLE `attempts` ADD `code_checks` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `code_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `attempts_code_pending_idx` ON `attempts` (`code_pending`) WHERE "attempts"."code_pending" = 1;