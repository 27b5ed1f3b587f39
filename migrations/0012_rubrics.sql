CREATE TABLE `rubrics` (
	`id` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`title` text NOT NULL,
	`criteria` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rubrics_group_idx` ON `rubrics` (`group_id`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `rubric` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `rubric_id` text REFERENCES rubrics(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `tasks_rubric_idx` ON `tasks` (`rubric_id`);