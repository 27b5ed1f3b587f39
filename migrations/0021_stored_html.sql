ALTER TABLE `lectures` ADD `body_html` text;--> statement-breakpoint
ALTER TABLE `quizzes` ADD `description_html` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `feedback_html` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `body_html` text;
--> statement-breakpoint
-- A change to the Markdown by any path that does not also store its new HTML clears the old HTML (worker/services/stored-html.ts renders it again on the next read).
CREATE TRIGGER `lectures_body_html_stale` AFTER UPDATE OF `body` ON `lectures` WHEN NEW.`body` IS NOT OLD.`body` AND NEW.`body_html` IS OLD.`body_html` BEGIN UPDATE `lectures` SET `body_html` = NULL WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `tasks_body_html_stale` AFTER UPDATE OF `body` ON `tasks` WHEN NEW.`body` IS NOT OLD.`body` AND NEW.`body_html` IS OLD.`body_html` BEGIN UPDATE `tasks` SET `body_html` = NULL WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `quizzes_description_html_stale` AFTER UPDATE OF `description` ON `quizzes` WHEN NEW.`description` IS NOT OLD.`description` AND NEW.`description_html` IS OLD.`description_html` BEGIN UPDATE `quizzes` SET `description_html` = NULL WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `submissions_feedback_html_stale` AFTER UPDATE OF `feedback` ON `submissions` WHEN NEW.`feedback` IS NOT OLD.`feedback` AND NEW.`feedback_html` IS OLD.`feedback_html` BEGIN UPDATE `submissions` SET `feedback_html` = NULL WHERE `id` = NEW.`id`; END;
