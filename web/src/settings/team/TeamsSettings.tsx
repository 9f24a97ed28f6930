import type { FormEvent } from "react";
import { useMembers } from "../../lib/resources/members";
import type { Team } from "../../lib/api/types";
import { Field, FormError, formValues } from "../../lib/ui/form";
import { Empty } from "../../lib/ui/states";
import { useCrud } from "../kit/crud";
import { ChangeError, CrudList, DeleteButton } from "../kit/CrudScreen";
import { teamsKeys } from "../../lib/resources/teams";

export default function TeamsSettings() {
  const teams = useCrud<Team>(teamsKeys.list, "/teams");
  const members = useMembers();
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    teams.create.mutate({ name: v.name, private: v.private === "on" }, { onSuccess: () => form.reset() });
  };
  const toggle = (team: Team, userId: string) =>
    teams.update.mutate({
      id: team.id,
      member_ids: team.member_ids.includes(userId)
        ? team.member_ids.filter((x) => x !== userId)
        : [...team.member_ids, userId],
    });
  return (
    <div className="settings-page">
      <h1>Teams</h1>
      <form className="inline-form" onSubmit={add} noValidate>
        <Field label="New team" name="name" error={teams.create.error}>
          <input name="name" placeholder="Billing" />
        </Field>
        <label className="check">
          <input type="checkbox" name="private" /> Private (only members and admins see its tickets)
        </label>
        <button type="submit" className="btn btn-primary" disabled={teams.create.isPending}>
          Add team
        </button>
      </form>
      <FormError error={teams.create.error} fields={["name"]} />
      <CrudList query={teams.list} empty={<Empty title="No teams yet">Teams group agents and route tickets.</Empty>}>
        {(rows) =>
          rows.map((t) => (
            <div className="card" key={t.id}>
              <div className="card-head">
                <strong>{t.name}</strong>
                {t.private && <span className="pill">Private</span>}
                <div className="grow" />
                <DeleteButton question={`Delete team ${t.name}?`} onDelete={() => teams.remove.mutate(t.id)} />
              </div>
              <div className="chips">
                {members.data?.map((m) => (
                  <label key={m.user.id} className="check">
                    <input
                      type="checkbox"
                      checked={t.member_ids.includes(m.user.id)}
                      onChange={() => toggle(t, m.user.id)}
                    />
                    {m.user.name}
                  </label>
                ))}
              </div>
            </div>
          ))
        }
      </CrudList>
      <ChangeError mutations={[teams.update, teams.remove]} />
    </div>
  );
}
