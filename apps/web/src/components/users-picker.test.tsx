import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { buildSimpleUser } from '@/testing/factories';
import { mockApi } from '@/testing/mock-api';
import { renderScreen } from '@/testing/render';
import { UserPicker } from './user-picker';
import { UsersPicker } from './users-picker';

const alice = buildSimpleUser({ id: 1, name: 'Alice', account: 'alice' });
const bob = buildSimpleUser({ id: 2, name: 'Bob', account: 'bob' });
const carol = buildSimpleUser({ id: 3, name: 'Carol', account: 'carol' });

const offered = () => [...document.querySelectorAll('.ant-select-dropdown .ant-select-item-option')].map((o) => o.textContent);
const spinning = () => document.querySelector('.ant-select-dropdown .ant-spin') !== null;

function Several() {
  const [ids, setIds] = useState<number[]>([]);
  return (
    <>
      <label htmlFor="people">People</label>
      <UsersPicker id="people" value={ids} onChange={setIds} />
      <output data-testid="chosen">{ids.join(',')}</output>
    </>
  );
}

describe('search pickers', () => {
  it('list only the answer to what is typed: no earlier options while that answer is on its way, then it stays', async () => {
    // The first page (no search) holds Alice and Bob; a search is answered when the test says so.
    let answer: (() => void) | undefined;
    const api = mockApi({
      '/sys-users/simple_list': (b) => {
        if (!b?.keyword) return [alice, bob];
        const found = [alice, bob, carol].filter((u) => u.account.includes(b.keyword!));
        return new Promise((resolve) => (answer = () => resolve(found)));
      },
    });
    const { user } = renderScreen(<Several />);
    await user.click(screen.getByLabelText('People'));
    await waitFor(() => expect(offered()).toEqual(['Alice (alice)', 'Bob (bob)']));

    await user.keyboard('car');
    // The first page is not offered under a search it does not answer (a click on it would land
    // on whatever the answer puts there).
    expect(offered()).toEqual([]);
    expect(spinning()).toBe(true);
    await waitFor(() => expect(api.bodies('/sys-users/simple_list')).toContainEqual({ keyword: 'car' }));
    expect(offered()).toEqual([]);

    answer!();
    await waitFor(() => expect(offered()).toEqual(['Carol (carol)']));
    expect(spinning()).toBe(false);
    await user.click(screen.getByTitle('Carol (carol)'));
    expect(screen.getByTestId('chosen').textContent).toBe('3');
    expect(offered()).toEqual(['Carol (carol)']);
    // Emptying the box brings the first page back at once (it is cached), and Carol, not on it,
    // keeps her name in the field.
    await user.keyboard('{Backspace}{Backspace}{Backspace}');
    expect(offered()).toEqual(['Alice (alice)', 'Bob (bob)']);
    expect(document.querySelector('.ant-select-selection-item')?.getAttribute('title')).toBe('Carol (carol)');
  });

  it('name a value set from outside by the label given, or by its id', async () => {
    mockApi({ '/sys-users/simple_list': () => [alice] });
    renderScreen(
      <>
        <UserPicker value={9} currentLabel="Dana" />
        <UserPicker value={8} />
      </>,
    );
    await waitFor(() => expect([...document.querySelectorAll('.ant-select-content-has-value')].map((e) => e.getAttribute('title'))).toEqual(['Dana', '#8']));
  });
});
