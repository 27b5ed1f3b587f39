ALTER TABLE `submissions` ADD `tests_score` integer;--> statement-breakpoint
ALTER TABLE `submissions` ADD `tests_raw_score` integer;--> statement-breakpoint
-- Exercises graded by their tests alone: their score is the tests' own. (Staff-graded ones keep null: the tests'
-- score was overwritten; their students see what they saw before this change.)
UPDATE `submissions` SET `tests_score` = `score`, `tests_raw_score` = `raw_score` WHERE `code` IS NOT NULL AND `graded_by` IS NULL AND `graded_at` IS NOT NULL;
