import { message as staticMessage, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * Toasts and notifications usable outside React (the request layer). The App component
 * registers its themed instances here; before that, antd's static ones are used.
 */
export const feedback: { message: MessageInstance; notification: NotificationInstance } = {
  message: staticMessage,
  notification: staticNotification,
};

export function registerFeedback(instances: typeof feedback) {
  feedback.message = instances.message;
  feedback.notification = instances.notification;
}
