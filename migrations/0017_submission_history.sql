CREATE TABLE `submission_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`author_id` text,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `submission_comments_submission_idx` ON `submission_comments` (`submission_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `submission_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`submission_id` text NOT NULL,
	`link` text NOT NULL,
	`notes` text,
	`code` text,
	`submitted_at` integer NOT NULL,
	`late` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `submission_versions_submission_idx` ON `submission_versions` (`submission_id`,`submitted_at`);