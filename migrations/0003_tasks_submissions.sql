DROP INDEX `tasks_lecture_slug_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_slug_uq` ON `tasks` (`slug`);--> statement-breakpoint
CREATE INDEX `tasks_lecture_due_idx` ON `tasks` (`lecture_id`,`due_at`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `resubmit_requested_at` integer;