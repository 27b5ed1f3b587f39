CREATE TABLE `announcement_dismissals` (
	`announcement_id` text NOT NULL,
	`user_id` text NOT NULL,
	`dismissed_at` integer NOT NULL,
	PRIMARY KEY(`announcement_id`, `user_id`),
	FOREIGN KEY (`announcement_id`) REFERENCES `announcements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `announcement_dismissals_user_idx` ON `announcement_dismissals` (`user_id`);--> statement-breakpoint
CREATE TABLE `announcements` (
	`id` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`author_id` text,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`body_html` text NOT NULL,
	`expires_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `announcements_group_created_idx` ON `announcements` (`group_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`group_id` text,
	`user_id` text NOT NULL,
	`recipient_name` text NOT NULL,
	`course_title` text NOT NULL,
	`instructor_name` text,
	`starts_on` text,
	`ends_on` text,
	`language` text DEFAULT 'en' NOT NULL,
	`issued_at` integer NOT NULL,
	`issued_by` text,
	`revoked_at` integer,
	`revoked_reason` text,
	`revoked_by` text,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`issued_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`revoked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_code_uq` ON `certificates` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_group_user_uq` ON `certificates` (`group_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `certificates_user_idx` ON `certificates` (`user_id`);--> statement-breakpoint
CREATE TABLE `copy_map` (
	`batch_id` text NOT NULL,
	`old_id` text NOT NULL,
	`new_id` text NOT NULL,
	PRIMARY KEY(`batch_id`, `old_id`)
);
--> statement-breakpoint
ALTER TABLE `groups` ADD `time_zone` text DEFAULT 'Africa/Cairo' NOT NULL;--> statement-breakpoint
ALTER TABLE `groups` ADD `completion_overall` integer;--> statement-breakpoint
ALTER TABLE `groups` ADD `completion_attendance` integer;--> statement-breakpoint
ALTER TABLE `lectures` ADD `publish_at` integer;--> statement-breakpoint
CREATE INDEX `lectures_publish_at_idx` ON `lectures` (`publish_at`) WHERE "lectures"."publish_at" is not null;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `publish_at` integer;--> statement-breakpoint
CREATE INDEX `quizzes_publish_at_idx` ON `quizzes` (`publish_at`) WHERE "quizzes"."publish_at" is not null;--> statement-breakpoint
ALTER TABLE `tasks` ADD `publish_at` integer;--> statement-breakpoint
CREATE INDEX `tasks_publish_at_idx` ON `tasks` (`publish_at`) WHERE "tasks"."publish_at" is not null;--> statement-breakpoint
ALTER TABLE `users` ADD `locale` text;