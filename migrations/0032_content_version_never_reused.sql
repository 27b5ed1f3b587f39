-- The content version (worker/http/page-cache.ts) is part of every edge-cache key. Counting up by one, a database
-- restored to an earlier copy (D1 Time Travel, an export imported again) counted again through numbers whose keys
-- still held pages of the state it left. Every change now moves it to at least the time of the change in
-- milliseconds (and by one at least, for changes in the same millisecond), so a number is never given twice.

DROP TRIGGER `content_version_groups_insert`;--> statement-breakpoint
CREATE TRIGGER `content_version_groups_insert` AFTER INSERT ON `groups` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_groups_update`;--> statement-breakpoint
CREATE TRIGGER `content_version_groups_update` AFTER UPDATE ON `groups` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_groups_delete`;--> statement-breakpoint
CREATE TRIGGER `content_version_groups_delete` AFTER DELETE ON `groups` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_course_contents_insert`;--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_insert` AFTER INSERT ON `course_contents` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_course_contents_update`;--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_update` AFTER UPDATE OF `group_id`, `title`, `body`, `order` ON `course_contents` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_course_contents_delete`;--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_delete` AFTER DELETE ON `course_contents` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_feedback_insert`;--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_insert` AFTER INSERT ON `feedback` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_feedback_update`;--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_update` AFTER UPDATE ON `feedback` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_feedback_delete`;--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_delete` AFTER DELETE ON `feedback` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_users_name`;--> statement-breakpoint
CREATE TRIGGER `content_version_users_name` AFTER UPDATE OF `name` ON `users` WHEN OLD.`name` IS NOT NEW.`name` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;--> statement-breakpoint
DROP TRIGGER `content_version_users_delete`;--> statement-breakpoint
CREATE TRIGGER `content_version_users_delete` AFTER DELETE ON `users` BEGIN UPDATE `content_version` SET `version` = max(`version` + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) WHERE `id` = 1; END;
