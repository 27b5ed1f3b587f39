CREATE TABLE `extensions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`task_id` text,
	`quiz_id` text,
	`due_at` integer,
	`closes_at` integer,
	`extra_minutes` integer DEFAULT 0 NOT NULL,
	`extra_attempts` integer DEFAULT 0 NOT NULL,
	`granted_by` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`quiz_id`) REFERENCES `quizzes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "extensions_one_target" CHECK(("extensions"."task_id" is null) <> ("extensions"."quiz_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `extensions_task_user_uq` ON `extensions` (`task_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `extensions_quiz_user_uq` ON `extensions` (`quiz_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `extensions_user_idx` ON `extensions` (`user_id`);