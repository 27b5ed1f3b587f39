ALTER TABLE `quizzes` ADD `answers_shown_at` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `changed_since_graded` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `registration_contested` integer DEFAULT false NOT NULL;