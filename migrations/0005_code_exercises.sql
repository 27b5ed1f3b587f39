CREATE TABLE `exercise_drafts` (
	`task_id` text NOT NULL,
	`user_id` text NOT NULL,
	`code` text NOT NULL,
	`saved_at` integer NOT NULL,
	PRIMARY KEY(`task_id`, `user_id`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `exercises` (
	`task_id` text PRIMARY KEY NOT NULL,
	`language` text DEFAULT 'javascript' NOT NULL,
	`starter_code` text DEFAULT '' NOT NULL,
	`tests` text NOT NULL,
	`time_ms` integer DEFAULT 1000 NOT NULL,
	`memory_mb` integer DEFAULT 16 NOT NULL,
	`reference_solution` text NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`verified_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `submissions` ADD `code` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `report` text;