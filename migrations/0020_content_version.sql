CREATE TABLE `content_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`epoch` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `content_version` (`id`, `version`, `epoch`) VALUES (1, 0, lower(hex(randomblob(8))));
--> statement-breakpoint
-- Everything the public pages show (worker/http/page-cache.ts): any change moves the version, whichever code made it.
CREATE TRIGGER `content_version_groups_insert` AFTER INSERT ON `groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_groups_update` AFTER UPDATE ON `groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_groups_delete` AFTER DELETE ON `groups` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_insert` AFTER INSERT ON `course_contents` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_update` AFTER UPDATE OF `group_id`, `title`, `body`, `order` ON `course_contents` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_course_contents_delete` AFTER DELETE ON `course_contents` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_insert` AFTER INSERT ON `feedback` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_update` AFTER UPDATE ON `feedback` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_feedback_delete` AFTER DELETE ON `feedback` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_users_name` AFTER UPDATE OF `name` ON `users` WHEN OLD.`name` IS NOT NEW.`name` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `content_version_users_delete` AFTER DELETE ON `users` BEGIN UPDATE `content_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
