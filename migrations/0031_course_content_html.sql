ALTER TABLE `course_contents` ADD `body_html` text;--> statement-breakpoint
-- As migrations/0021: a change to the Markdown that does not also store its new HTML clears the old HTML.
CREATE TRIGGER `course_contents_body_html_stale` AFTER UPDATE OF `body` ON `course_contents` WHEN NEW.`body` IS NOT OLD.`body` AND NEW.`body_html` IS OLD.`body_html` BEGIN UPDATE `course_contents` SET `body_html` = NULL WHERE `id` = NEW.`id`; END;
