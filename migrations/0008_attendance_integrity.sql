CREATE TABLE `attendance_pending_checkins` (
	`id` text PRIMARY KEY NOT NULL,
	`lecture_id` text NOT NULL,
	`session_id` text NOT NULL,
	`browser_hash` text NOT NULL,
	`status` text NOT NULL,
	`scanned_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`used_by` text,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `attendance_sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`used_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `attendance_pending_lecture_idx` ON `attendance_pending_checkins` (`lecture_id`);--> statement-breakpoint
CREATE INDEX `attendance_pending_session_idx` ON `attendance_pending_checkins` (`session_id`);--> statement-breakpoint
CREATE INDEX `attendance_pending_used_by_idx` ON `attendance_pending_checkins` (`used_by`);--> statement-breakpoint
CREATE INDEX `attendance_pending_expires_idx` ON `attendance_pending_checkins` (`expires_at`);--> statement-breakpoint
ALTER TABLE `attendance` ADD `browser` text;--> statement-breakpoint
ALTER TABLE `attendance` ADD `address` text;--> statement-breakpoint
CREATE INDEX `attendance_lecture_browser_idx` ON `attendance` (`lecture_id`,`browser`);--> statement-breakpoint
CREATE INDEX `attendance_lecture_address_idx` ON `attendance` (`lecture_id`,`address`,`marked_at`);