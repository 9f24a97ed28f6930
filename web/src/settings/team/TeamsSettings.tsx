import type { FormEvent } from "react";
import { useMembers } from "../../lib/resources/members";
import type { Team } from "../../lib/api/types";
import { t } from "../../lib/i18n/i18n";
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
      <h1>{t("settings.navTeams")}</h1>
      <form className="inline-form" onSubmit={add} noValidate>
        <Field label={t("settings.teamsNew")} name="name" error={teams.create.error}>
          <input name="name" placeholder={t("settings.teamsNamePlaceholder")} />
        </Field>
        <label className="check">
          <input type="checkbox" name="private" /> {t("settings.teamsPrivateHint")}
        </label>
        <button type="submit" className="btn btn-primary" disabled={teams.create.isPending}>
          {t("settings.teamsAdd")}
        </button>
      </form>
      <FormError error={teams.create.error} fields={["name"]} />
      <CrudList
        query={teams.list}
        empty={<Empty title={t("settings.teamsEmpty")}>{t("settings.teamsEmptyHint")}</Empty>}
      >
        {(rows) =>
          rows.map((team) => (
            <div className="card" key={team.id}>
              <div className="card-head">
                <strong>{team.name}</strong>
                {team.private && <span className="pill">{t("settings.teamsPrivate")}</span>}
                <div className="grow" />
                <DeleteButton
                  question={t("settings.teamsDeleteQuestion", { name: team.name })}
                  onDelete={() => teams.remove.mutate(team.id)}
                />
              </div>
              <div className="chips">
                {members.data?.map((m) => (
                  <label key={m.user.id} className="check">
                    <input
                      type="checkbox"
                      checked={team.member_ids.includes(m.user.id)}
                      onChange={() => toggle(team, m.user.id)}
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
