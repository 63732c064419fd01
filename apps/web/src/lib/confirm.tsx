import { Alert, Flex } from 'antd';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { ReactNode } from 'react';
import { ApiError } from './api-client';
import i18n from './i18n';

interface ConfirmOptions {
  title: ReactNode;
  content?: ReactNode;
  okText?: string;
  danger?: boolean;
  /** Runs on OK; the dialog closes when it resolves. */
  action: () => Promise<unknown>;
}

/**
 * A confirm dialog whose OK runs `action` with a spinner. If the server refuses, the dialog
 * stays open with its message inside (the request layer has also notified), so the user reads
 * why next to what they tried, e.g. "this department still has 3 members".
 */
export function confirmAction(modal: Pick<ModalHookAPI, 'confirm'>, { title, content, okText, danger, action }: ConfirmOptions) {
  const instance = modal.confirm({
    title,
    content,
    okText: okText ?? i18n.t('actions.confirm'),
    cancelText: i18n.t('actions.cancel'),
    okButtonProps: { danger },
    // With a `close` parameter and no promise returned, antd leaves closing to us.
    onOk: (close: () => void) => {
      instance.update({ okButtonProps: { danger, loading: true } });
      action().then(
        () => close(),
        (err: unknown) =>
          instance.update({
            okButtonProps: { danger, loading: false },
            content: (
              <Flex vertical gap={12}>
                {content}
                {err instanceof ApiError && <Alert type="error" showIcon title={err.message} data-testid="confirm-error" />}
              </Flex>
            ),
          }),
      );
    },
  });
  return instance;
}
