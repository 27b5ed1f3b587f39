DROP INDEX `attempts_quiz_user_idx`;--> statement-breakpoint
ALTER TABLE `attempts` ADD `number` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `attempts` ADD `deadline_at` integer;--> statement-breakpoint
ALTER TABLE `attempts` ADD `saved_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_quiz_user_number_uq` ON `attempts` (`quiz_id`,`user_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_open_uq` ON `attempts` (`quiz_id`,`user_id`) WHERE `submitted_at` is null;--> statement-breakpoint
CREATE INDEX `attempts_open_deadline_idx` ON `attempts` (`deadline_at`) WHERE `submitted_at` is null;--> statement-breakpoint
DROP INDEX `quizzes_group_slug_uq`;--> statement-breakpoint
CREATE UNIQUE INDEX `quizzes_slug_uq` ON `quizzes` (`slug`);--> statement-breakpoint
CREATE INDEX `quizzes_group_idx` ON `quizzes` (`group_id`);