DROP INDEX `lectures_group_slug_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `lectures_slug_uq` ON `lectures` (`slug`);--> statement-breakpoint
CREATE INDEX `lectures_group_starts_idx` ON `lectures` (`group_id`,`starts_at`);--> statement-breakpoint
ALTER TABLE `attendance` ADD `device` text;--> statement-breakpoint
CREATE INDEX `attendance_lecture_device_idx` ON `attendance` (`lecture_id`,`device`);--> statement-breakpoint
ALTER TABLE `attendance_sessions` DROP COLUMN `code_hash`;