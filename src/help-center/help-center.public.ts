/** What other features may use of the help center: its public address (the widget config's `help_center_url`). */

/**
 * `{base_url}/help/{workspace_slug}` when the workspace's help center is on (`help_center_enabled`
 * true), else null: a link to a help center that answers 404 helps nobody.
 */
export function helpCenterUrlOf(
  baseUrl: string,
  workspace: { slug: string; settings: Record<string, unknown> | null },
) {
  return workspace.settings?.help_center_enabled === true
    ? `${baseUrl}/help/${encodeURIComponent(workspace.slug)}`
    : null;
}
