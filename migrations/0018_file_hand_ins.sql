ALTER TABLE `submission_versions` ADD `file_key` text;--> statement-breakpoint
ALTER TABLE `submission_versions` ADD `file_name` text;--> statement-breakpoint
ALTER TABLE `submission_versions` ADD `file_type` text;--> statement-breakpoint
ALTER TABLE `submission_versions` ADD `file_size` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `file_key` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `file_name` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `file_type` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `file_size` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `file_kinds` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `max_file_mb` integer DEFAULT 10 NOT NULL;