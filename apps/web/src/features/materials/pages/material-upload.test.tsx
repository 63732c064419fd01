import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findDialog } from '@/testing/dom';
import { buildSimpleUser } from '@/testing/factories';
import { buildMaterial } from '@/testing/material-factories';
import { materialsBackend } from '@/testing/materials-backend';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import type { Transfer, TransferEvents } from '../upload/upload-queue';
import { createUploadQueue, UploadQueueContext } from '../upload/upload-store';
import DramaMaterialsPage from './drama-materials-page';
import MaterialUploadPage from './material-upload-page';

const EXISTING_MD5 = 'a'.repeat(32);
const existing = buildMaterial({ id: 1, file_name: 'hook-v1.mp4', md5: EXISTING_MD5, uploader: { id: 32, name: 'Bob' }, created_at: '2026-03-02T08:00:00.000Z' });

interface FakeTransfer extends Transfer {
  file: File;
  metadata: Record<string, string>;
  events: TransferEvents;
  paused: number;
  cancelled: number;
}

/** The screen with a queue whose hashing and tus transfers the test drives; the server checks go through the mock API. */
function setup(page = <MaterialUploadPage />, url = '/material/upload') {
  const backend = materialsBackend({ materials: [existing], users: [buildSimpleUser({ id: 31, account: 'alice', name: 'Alice' })] });
  const api = mockApi(backend.handlers);
  const transfers: FakeTransfer[] = [];
  const queue = createUploadQueue(
    {
      hash: async (file, onProgress) => {
        onProgress(file.size);
        return file.name.startsWith('dup') ? EXISTING_MD5 : file.name.replace(/\W/g, '').padEnd(32, '0').slice(0, 32).replace(/[^0-9a-f]/g, 'b');
      },
      createTransfer: (file, metadata, events) => {
        const t: FakeTransfer = {
          file,
          metadata,
          events,
          paused: 0,
          cancelled: 0,
          start: () => undefined,
          pause: async () => void t.paused++,
          cancel: async () => void t.cancelled++,
        };
        transfers.push(t);
        return t;
      },
    },
    { progressIntervalMs: 0 },
  );
  const view = renderScreen(<UploadQueueContext.Provider value={queue}>{page}</UploadQueueContext.Provider>, { url });
  // Picking a .txt must reach the screen (a browser's file dialog can be switched to "all files").
  const user = userEvent.setup({ delay: null, applyAccept: false });
  const input = () => within(screen.getByTestId('upload-panel')).getByTestId('material-drop').querySelector('input[type=file]') ?? document.querySelector<HTMLInputElement>('[data-testid=upload-panel] input[type=file]')!;
  return { ...view, user, api, backend, queue, transfers, input };
}

const video = (name: string, size = 4096) => new File([new Uint8Array(size)], name, { type: 'video/mp4', lastModified: 1 });
const row = (name: string) => within(screen.getAllByTestId('upload-row').find((r) => r.textContent?.includes(name))!);

describe('material upload', { timeout: 60_000 }, () => {
  it('skips a file whose content is already in the library and links to the existing material', async () => {
    const { user, api, input, transfers, router } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.upload(input() as HTMLInputElement, [video('dup-renamed.mp4'), video('new.mp4')]);

    const dup = await waitFor(() => row('dup-renamed.mp4'));
    await waitFor(() =>
      expect(dup.getByTestId('upload-duplicate').textContent).toMatch(/^The library already has this content as "hook-v1\.mp4" \(uploaded by Bob on 2026-03-02 \d\d:00\); it was not uploaded again\.$/),
    );
    expect(api.bodies('/materials/check_hash')).toContainEqual({ md5: EXISTING_MD5 });
    // Only the new file is sent.
    await waitFor(() => expect(transfers.map((t) => t.file.name)).toEqual(['new.mp4']));

    await user.click(dup.getByRole('button', { name: 'Open material' }));
    await findDialog('hook-v1.mp4');
    expect(router.state.location.search).toBe('?material=1');
  });

  it('sends the batch details with each file, shows progress, and refreshes the library when a file is done', async () => {
    const { user, api, input, transfers } = setup();
    await screen.findByText('hook-v1.mp4');
    const panel = within(screen.getByTestId('upload-panel'));
    await user.click(panel.getByText('E-commerce'));
    await user.click(panel.getByLabelText('Language'));
    await user.click(await screen.findByTitle('Spanish (es)'));
    await user.click(panel.getByLabelText('Editor'));
    await user.click(await screen.findByTitle('Alice (alice)'));
    // Editors are looked up as such: anyone who works on materials, not only the people in one's data scope.
    expect(api.lastBody('/sys-users/simple_list')).toEqual({ purpose: 'editor' });
    await user.type(panel.getByLabelText('Remark'), 'summer sale');
    await user.upload(input() as HTMLInputElement, [video('shoe.mp4', 10_000)]);

    await waitFor(() => expect(transfers).toHaveLength(1));
    const t = transfers[0]!;
    expect(t.metadata).toEqual({ filename: 'shoe.mp4', filetype: 'video/mp4', platform: 'ec', language: 'es', editor_id: '31', remark: 'summer sale' });
    expect(row('shoe.mp4').getByText(/Spanish \(es\) · Alice/)).toBeTruthy();

    t.events.onResume(2500);
    t.events.onProgress(5000, 10_000);
    await waitFor(() => expect(row('shoe.mp4').getByText(/50% · Resumed at 25%/)).toBeTruthy());

    const lists = api.count('/materials/list');
    t.events.onSuccess('up1', { status: 'created', material: buildMaterial({ id: 50, file_name: 'shoe.mp4', platform: 'ec' }) });
    await waitFor(() => expect(row('shoe.mp4').getByText('Done')).toBeTruthy());
    await waitFor(() => expect(api.count('/materials/list')).toBeGreaterThan(lists));
    expect(screen.getByTestId('upload-summary').textContent).toBe('In progress 0 · done 1 · duplicates 0 · failed 0');
  });

  it("shows the server's reason for a refused file and what the browser could not send", async () => {
    const { user, input, transfers } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.upload(input() as HTMLInputElement, [video('broken.mp4'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    await waitFor(() => expect(transfers).toHaveLength(1));
    expect(row('notes.txt').getByTestId('upload-error').textContent).toBe('Not a video or image; not uploaded');

    transfers[0]!.events.onError({ kind: 'server', message: 'The file is not a video or image (detected: application/zip)', status: 415 });
    await waitFor(() => expect(row('broken.mp4').getByTestId('upload-error').textContent).toBe('The file is not a video or image (detected: application/zip)'));
    // The same bytes would be refused again: it can only leave the list.
    expect(row('broken.mp4').queryByRole('button', { name: 'Retry broken.mp4' })).toBeNull();
    expect(row('broken.mp4').getByRole('button', { name: 'Remove from list broken.mp4' })).toBeTruthy();
  });

  it("shows the server's quota and disk refusals, and lets the file be tried again later", async () => {
    const { user, input, transfers } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.upload(input() as HTMLInputElement, [video('many.mp4'), video('full.mp4')]);
    await waitFor(() => expect(transfers).toHaveLength(2));
    const quota = 'You have 20 unfinished uploads (at most 20). Finish or cancel some before starting more; unfinished uploads are removed after 7 days.';
    transfers[0]!.events.onError({ kind: 'server', message: quota, status: 429 });
    transfers[1]!.events.onError({ kind: 'server', message: 'The server is low on disk space (1.2 GiB free) and cannot take a file of 4 KiB now. Contact an administrator.', status: 507 });
    await waitFor(() => expect(row('many.mp4').getByTestId('upload-error').textContent).toBe(quota));
    expect(row('full.mp4').getByTestId('upload-error').textContent).toMatch(/^The server is low on disk space/);
    // Not the file's fault: once there is room it can go again.
    expect(row('many.mp4').getByRole('button', { name: 'Retry many.mp4' })).toBeTruthy();
    expect(row('full.mp4').getByRole('button', { name: 'Retry full.mp4' })).toBeTruthy();
  });

  it('pauses, resumes and cancels a file', async () => {
    const { user, input, transfers } = setup();
    await screen.findByText('hook-v1.mp4');
    await user.upload(input() as HTMLInputElement, [video('a.mp4')]);
    await waitFor(() => expect(transfers).toHaveLength(1));
    await user.click(row('a.mp4').getByRole('button', { name: 'Pause a.mp4' }));
    expect(transfers[0]!.paused).toBe(1);
    expect(row('a.mp4').getByText('Paused')).toBeTruthy();
    await user.click(row('a.mp4').getByRole('button', { name: 'Resume a.mp4' }));
    expect(row('a.mp4').getByText('Uploading')).toBeTruthy();
    await user.click(row('a.mp4').getByRole('button', { name: 'Cancel upload a.mp4' }));
    expect(transfers[0]!.cancelled).toBe(1);
    expect(screen.queryByTestId('upload-row')).toBeNull();
  });

  it('uploads drama materials from 短剧素材 once the panel is opened', async () => {
    const { user, input, transfers } = setup(<DramaMaterialsPage />, '/advertising/video');
    await screen.findByText('hook-v1.mp4');
    await user.click(screen.getByRole('button', { name: /Upload materials/ }));
    // The business is fixed by the screen.
    expect(within(screen.getByTestId('upload-panel')).queryByText('E-commerce')).toBeNull();
    await user.upload(input() as HTMLInputElement, [video('ep2.mp4')]);
    await waitFor(() => expect(transfers[0]?.metadata.platform).toBe('dj'));
  });
});
