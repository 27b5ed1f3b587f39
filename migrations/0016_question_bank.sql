CREATE TABLE `bank_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`group_id` text NOT NULL,
	`text` text NOT NULL,
	`type` text NOT NULL,
	`options` text DEFAULT '[]' NOT NULL,
	`correct` text NOT NULL,
	`points` integer DEFAULT 1 NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bank_questions_group_idx` ON `bank_questions` (`group_id`);--> statement-breakpoint
ALTER TABLE `attempts` ADD `paper` text;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `draws` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `shuffle_questions` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `shuffle_options` integer DEFAULT false NOT NULL;